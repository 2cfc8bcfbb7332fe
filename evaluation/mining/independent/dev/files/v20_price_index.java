package com.mall.catalog;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

public class PriceIndexBuilder {

    public Map<String, BigDecimal> build(List<Product> products) {
        // 商品数量通常在几万级别
        Map<String, BigDecimal> index = new HashMap<>();
        for (Product product : products) {
            index.put(product.getSku(), product.getPrice());
        }
        return index;
    }

    public List<String> skusOf(List<Product> products) {
        List<String> skus = new ArrayList<>();
        products.forEach(p -> skus.add(p.getSku()));
        return skus;
    }

    public BigDecimal highest(Map<String, BigDecimal> index) {
        BigDecimal max = BigDecimal.ZERO;
        for (BigDecimal price : index.values()) {
            max = max.max(price);
        }
        return max;
    }
}

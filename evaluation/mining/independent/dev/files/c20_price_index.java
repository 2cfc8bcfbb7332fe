package com.mall.catalog;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

public class PriceIndexBuilder {

    private static final float LOAD_FACTOR = 0.75f;

    public Map<String, BigDecimal> build(List<Product> products) {
        int capacity = (int) (products.size() / LOAD_FACTOR) + 1;
        Map<String, BigDecimal> index = new HashMap<>(capacity);
        for (Product product : products) {
            index.put(product.getSku(), product.getPrice());
        }
        return index;
    }

    public List<String> skusOf(List<Product> products) {
        List<String> skus = new ArrayList<>(products.size());
        products.forEach(p -> skus.add(p.getSku()));
        return skus;
    }
}

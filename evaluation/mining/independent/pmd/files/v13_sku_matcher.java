package com.shop.catalog;

import java.util.List;

public class SkuMatcher {

    private final Catalog catalog;

    public SkuMatcher(Catalog catalog) {
        this.catalog = catalog;
    }

    public boolean isFeatured(String sku) {
        if (sku != null && catalog.featuredSku().equals(sku)) {
            return true;
        }
        return false;
    }

    public int countMatches(List<Product> products, String sku) {
        int matches = 0;
        for (Product product : products) {
            if (sku != null && product.getSku().equals(sku)) {
                matches++;
            }
        }
        return matches;
    }

    public interface Catalog {
        String featuredSku();
    }
}

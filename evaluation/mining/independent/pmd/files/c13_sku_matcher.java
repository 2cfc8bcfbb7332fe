package com.shop.catalog;

import java.util.List;

public class SkuMatcher {

    private final Catalog catalog;

    public SkuMatcher(Catalog catalog) {
        this.catalog = catalog;
    }

    public boolean isFeatured(String sku) {
        return sku != null && sku.equals(catalog.featuredSku());
    }

    public boolean isGiftCard(String sku) {
        return "GIFT-CARD".equals(sku);
    }

    public int countMatches(List<Product> products, String sku) {
        int matches = 0;
        for (Product product : products) {
            if (sku != null && sku.equals(product.getSku())) {
                matches++;
            }
        }
        return matches;
    }

    public interface Catalog {
        String featuredSku();
    }
}

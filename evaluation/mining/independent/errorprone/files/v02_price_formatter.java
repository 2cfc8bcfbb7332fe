package com.shop.catalog.view;

import java.util.Comparator;
import java.util.List;
import java.util.function.Predicate;
import java.util.stream.Collectors;

public class ProductListing {

    private static final Comparator<Product> CHEAPEST_FIRST = new Comparator<Product>() {
        @Override
        public int compare(Product left, Product right) {
            return left.getPrice().compareTo(right.getPrice());
        }
    };

    private final Predicate<Product> visible = new Predicate<Product>() {
        @Override
        public boolean test(Product product) {
            return product.isPublished() && product.getStock() > 0;
        }
    };

    public List<Product> page(List<Product> products, int size) {
        return products.stream()
                .filter(visible)
                .sorted(CHEAPEST_FIRST)
                .limit(size)
                .collect(Collectors.toList());
    }
}

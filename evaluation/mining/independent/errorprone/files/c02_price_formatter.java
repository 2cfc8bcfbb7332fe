package com.shop.catalog.view;

import java.util.Comparator;
import java.util.List;
import java.util.stream.Collectors;

public class ProductListing {

    private static int byPrice(Product left, Product right) {
        return left.getPrice().compareTo(right.getPrice());
    }

    private static boolean isVisible(Product product) {
        return product.isPublished() && product.getStock() > 0;
    }

    private final PageListener listener = new PageListener() {
        @Override
        public void pageShown(int size) {
            System.out.println("page of " + size);
        }

        @Override
        public void pageFailed(Exception e) {
            System.err.println("page failed: " + e);
        }
    };

    public List<Product> page(List<Product> products, int size) {
        List<Product> page = products.stream()
                .filter(ProductListing::isVisible)
                .sorted(ProductListing::byPrice)
                .limit(size)
                .collect(Collectors.toList());
        listener.pageShown(page.size());
        return page;
    }

    interface PageListener {
        void pageShown(int size);

        void pageFailed(Exception e);
    }
}

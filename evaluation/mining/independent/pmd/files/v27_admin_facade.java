package com.shop.admin;

import java.math.BigDecimal;
import java.util.List;

public class AdminFacade {

    private final Orders orders;
    private final Customers customers;
    private final Catalog catalog;

    public AdminFacade(Orders orders, Customers customers, Catalog catalog) {
        this.orders = orders;
        this.customers = customers;
        this.catalog = catalog;
    }

    public Object findOrder(long id) { return orders.find(id); }
    public List<Object> ordersOf(long customerId) { return orders.byCustomer(customerId); }
    public void cancelOrder(long id) { orders.cancel(id); }
    public void refundOrder(long id) { orders.refund(id); }
    public void shipOrder(long id) { orders.ship(id); }
    public void holdOrder(long id) { orders.hold(id); }
    public void releaseOrder(long id) { orders.release(id); }
    public void noteOrder(long id, String note) { orders.note(id, note); }
    public void reassignOrder(long id, long agent) { orders.assign(id, agent); }
    public void reprintInvoice(long id) { orders.reprint(id); }
    public void resendConfirmation(long id) { orders.resend(id); }
    public void splitOrder(long id) { orders.split(id); }
    public void mergeOrders(long a, long b) { orders.merge(a, b); }
    public int countOpenOrders() { return orders.countOpen(); }
    public int countLateOrders() { return orders.countLate(); }
    public Object findCustomer(long id) { return customers.find(id); }
    public void blockCustomer(long id) { customers.block(id); }
    public void unblockCustomer(long id) { customers.unblock(id); }
    public void deleteCustomer(long id) { customers.delete(id); }
    public void mergeCustomers(long a, long b) { customers.merge(a, b); }
    public void resetPassword(long id) { customers.resetPassword(id); }
    public void verifyEmail(long id) { customers.verifyEmail(id); }
    public void grantPoints(long id, int points) { customers.grant(id, points); }
    public void revokePoints(long id, int points) { customers.revoke(id, points); }
    public void tagCustomer(long id, String tag) { customers.tag(id, tag); }
    public void untagCustomer(long id, String tag) { customers.untag(id, tag); }
    public int countCustomers() { return customers.count(); }
    public Object findProduct(String sku) { return catalog.find(sku); }
    public void hideProduct(String sku) { catalog.hide(sku); }
    public void showProduct(String sku) { catalog.show(sku); }
    public void reprice(String sku, BigDecimal price) { catalog.reprice(sku, price); }
    public void discount(String sku, int percent) { catalog.discount(sku, percent); }
    public void restock(String sku, int quantity) { catalog.restock(sku, quantity); }
    public void retire(String sku) { catalog.retire(sku); }
    public void renameProduct(String sku, String name) { catalog.rename(sku, name); }
    public void moveCategory(String sku, String category) { catalog.move(sku, category); }
    public void addImage(String sku, String url) { catalog.addImage(sku, url); }
    public void removeImage(String sku, String url) { catalog.removeImage(sku, url); }
    public void linkProducts(String a, String b) { catalog.link(a, b); }
    public void unlinkProducts(String a, String b) { catalog.unlink(a, b); }
    public int countProducts() { return catalog.count(); }
    public int countHidden() { return catalog.countHidden(); }
    public void reindexSearch() { catalog.reindex(); }
    public void rebuildSitemap() { catalog.sitemap(); }
    public void flushCaches() { catalog.flush(); orders.flush(); customers.flush(); }
    public void exportCatalog(String path) { catalog.export(path); }
    public void importCatalog(String path) { catalog.importFrom(path); }
}

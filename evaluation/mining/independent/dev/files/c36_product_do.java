package com.mall.catalog.dataobject;

import java.math.BigDecimal;

public class ProductDO {

    private Long id;
    private String title;
    private BigDecimal price;
    private Boolean onSale;
    private boolean deleted;

    public Long getId() {
        return id;
    }

    public void setId(Long id) {
        this.id = id;
    }

    public Boolean getOnSale() {
        return onSale;
    }

    public void setOnSale(Boolean onSale) {
        this.onSale = onSale;
    }

    public boolean isDeleted() {
        return deleted;
    }

    public void setDeleted(boolean deleted) {
        this.deleted = deleted;
    }
}

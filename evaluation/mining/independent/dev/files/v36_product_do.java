package com.mall.catalog.dataobject;

import java.math.BigDecimal;

/**
 * 商品表 product 的数据对象。
 */
public class ProductDO {

    private Long id;
    private String title;
    private BigDecimal price;
    private Boolean isOnSale;
    private boolean isDeleted;

    public Long getId() {
        return id;
    }

    public void setId(Long id) {
        this.id = id;
    }

    public String getTitle() {
        return title;
    }

    public void setTitle(String title) {
        this.title = title;
    }

    public Boolean getIsOnSale() {
        return isOnSale;
    }

    public void setIsOnSale(Boolean isOnSale) {
        this.isOnSale = isOnSale;
    }

    public boolean isDeleted() {
        return isDeleted;
    }
}

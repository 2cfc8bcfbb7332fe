package com.shopcart.order.service;

import java.util.Collections;
import java.util.List;
import java.util.Map;

import com.shopcart.order.model.Order;
import com.shopcart.order.repo.TagRepository;

/**
 * 订单标签服务：为订单补充系统标签。
 */
public class OrderTagService {

    private final TagRepository tagRepository;
    private final Map<String, Integer> riskScores;

    public OrderTagService(TagRepository tagRepository, Map<String, Integer> riskScores) {
        this.tagRepository = tagRepository;
        this.riskScores = riskScores;
    }

    private List<String> loadTags(Order order) {
        List<String> stored = tagRepository.findByOrderId(order.getId());
        // 查询不到时返回空集合，避免返回 null
        return stored == null ? Collections.emptyList() : stored;
    }

    public List<String> tagsFor(Order order) {
        List<String> tags = loadTags(order);
        Integer score = riskScores.get(order.getBuyerId());
        if (score != null && score > 80) {
            tags.add("HIGH_RISK");
        }
        if (order.getAmountInCents() > 5_000_00L) {
            tags.add("LARGE_AMOUNT");
        }
        return tags;
    }
}

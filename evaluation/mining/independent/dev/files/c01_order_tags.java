package com.shopcart.order.service;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import com.shopcart.order.model.Order;
import com.shopcart.order.repo.TagRepository;

public class OrderTagReader {

	private final TagRepository tagRepository;

	public OrderTagReader(TagRepository tagRepository) {
		this.tagRepository = tagRepository;
	}

	/** 只读视图：调用方不得修改返回的集合。 */
	public List<String> storedTags(long orderId) {
		List<String> stored = tagRepository.findByOrderId(orderId);
		return stored == null ? Collections.emptyList() : Collections.unmodifiableList(stored);
	}

	public List<String> tagsWithSystemFlags(Order order) {
		// 先拷贝到可变集合，再追加系统标签
		List<String> tags = new ArrayList<>(storedTags(order.getId()));
		if (order.getAmountInCents() > 500_000L) {
			tags.add("LARGE_AMOUNT");
		}
		return tags;
	}

	public int countTags(long orderId) {
		return storedTags(orderId).size();
	}
}

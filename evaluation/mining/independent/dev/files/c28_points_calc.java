package com.crm.loyalty;

import java.util.List;

public class PointsCalculator {

	private final int vipMultiplier;

	public PointsCalculator(int vipMultiplier) {
		this.vipMultiplier = vipMultiplier;
	}

	public int points(Member member, List<Purchase> purchases) {
		int total = 0;
		for (Purchase purchase : purchases) {
			total += purchase.getAmountInCents() / 100;
		}
		if (member.isVip()) {
			total *= vipMultiplier;
		} else if (member.isNew()) {
			total += 50;
		}
		return total;
	}

	public String tier(int points) {
		if (points > 10_000) {
			return "GOLD";
		}
		return points > 1_000 ? "SILVER" : "BASIC";
	}
}

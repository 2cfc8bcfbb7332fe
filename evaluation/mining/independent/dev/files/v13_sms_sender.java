package com.notify.sms;

import java.time.Duration;
import java.util.Map;

public class SmsSender {

	private static final int maxRetry = 3;
	private static final Duration sendTimeout = Duration.ofSeconds(5);
	public static final String Template_Prefix = "SMS_TPL_";

	private final SmsClient client;

	public SmsSender(SmsClient client) {
		this.client = client;
	}

	public boolean send(String phone, String templateId, Map<String, String> params) {
		for (int attempt = 1; attempt <= maxRetry; attempt++) {
			try {
				client.send(phone, Template_Prefix + templateId, params, sendTimeout);
				return true;
			} catch (SmsClient.ThrottledException e) {
				// 被限流时稍后重试
				sleepQuietly(attempt * 200L);
			}
		}
		return false;
	}

	private static void sleepQuietly(long millis) {
		try {
			Thread.sleep(millis);
		} catch (InterruptedException e) {
			Thread.currentThread().interrupt();
		}
	}
}

package com.notify.sms;

import java.time.Duration;
import java.util.Map;

public class SmsSender {

	private static final int MAX_SEND_RETRY_TIMES = 3;
	private static final Duration SMS_SEND_TIMEOUT = Duration.ofSeconds(5);
	public static final String SMS_TEMPLATE_PREFIX = "SMS_TPL_";

	private final SmsClient client;
	private int sentCount;

	public SmsSender(SmsClient client) {
		this.client = client;
	}

	public boolean send(String phone, String templateId, Map<String, String> params) {
		for (int attempt = 1; attempt <= MAX_SEND_RETRY_TIMES; attempt++) {
			try {
				client.send(phone, SMS_TEMPLATE_PREFIX + templateId, params, SMS_SEND_TIMEOUT);
				sentCount++;
				return true;
			} catch (SmsClient.ThrottledException e) {
				Thread.yield();
			}
		}
		return false;
	}

	public int sentCount() {
		return sentCount;
	}
}

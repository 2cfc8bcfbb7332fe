package com.paydesk.client;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

public class PaymentClient {

    private final HttpClient http = HttpClient.newHttpClient();
    private final URI endpoint;

    public PaymentClient(URI endpoint) {
        this.endpoint = endpoint;
    }

    public String capture(String paymentId) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(endpoint.resolve("/payments/" + paymentId + "/capture"))
                .POST(HttpRequest.BodyPublishers.noBody())
                .build();
        HttpResponse<String> response;
        try {
            response = http.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException | InterruptedException e) {
            throw new RuntimeException("capture failed for " + paymentId, e);
        }
        if (response.statusCode() == 409) {
            throw new Exception("payment " + paymentId + " already captured");
        }
        return response.body();
    }
}

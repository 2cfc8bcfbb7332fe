package io.edge.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import java.time.Instant;
import org.junit.jupiter.api.Test;

class TokenRefresherTest {

    private final TokenClient client = mock(TokenClient.class);
    private final TokenCache cache = mock(TokenCache.class);

    @Test
    void refreshesExpiredToken() {
        when(cache.get("svc")).thenReturn(new Token("old", Instant.EPOCH));
        when(client.fetch("svc")).thenReturn(new Token("new", Instant.MAX));

        TokenRefresher refresher = new TokenRefresher(client, cache);
        String value = refresher.current("svc");

        assertEquals("new", value);
        verify(cache).put(any(), any());
    }
}

package accounts.session;

import javax.servlet.http.Cookie;
import javax.servlet.http.HttpServletResponse;

public class RememberMeIssuer {

    private static final int THIRTY_DAYS = 30 * 24 * 3600;

    private final TokenStore tokens;

    public RememberMeIssuer(TokenStore tokens) {
        this.tokens = tokens;
    }

    public void issue(String userId, HttpServletResponse response) {
        String token = tokens.create(userId);
        Cookie cookie = new Cookie("remember_me", token);
        cookie.setHttpOnly(true);
        cookie.setMaxAge(THIRTY_DAYS);
        cookie.setPath("/");
        response.addCookie(cookie);
    }

    interface TokenStore {
        String create(String userId);
    }
}

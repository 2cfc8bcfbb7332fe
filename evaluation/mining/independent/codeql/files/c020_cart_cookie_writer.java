package shop.cart;

import javax.servlet.http.Cookie;
import javax.servlet.http.HttpServletResponse;

public final class CartCookieWriter {

    private CartCookieWriter() {
    }

    public static void write(HttpServletResponse response, String cartId) {
        Cookie cart = new Cookie("cart", cartId);
        cart.setSecure(true);
        cart.setHttpOnly(true);
        cart.setMaxAge(7 * 24 * 3600);
        cart.setPath("/shop");
        response.addCookie(cart);
    }

    public static void clear(HttpServletResponse response) {
        Cookie cart = new Cookie("cart", "");
        cart.setSecure(true);
        cart.setMaxAge(0);
        cart.setPath("/shop");
        response.addCookie(cart);
    }
}

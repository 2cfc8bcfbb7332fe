package shop.api;

import java.io.IOException;
import java.io.PrintWriter;
import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;

public class OrderApiServlet extends HttpServlet {

    private final OrderService orders = new OrderService();

    @Override
    protected void doPost(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        PrintWriter out = resp.getWriter();
        try {
            String id = orders.place(req.getParameter("sku"), req.getParameter("qty"));
            out.println("{\"order\":\"" + id + "\"}");
        } catch (RuntimeException e) {
            resp.setStatus(HttpServletResponse.SC_INTERNAL_SERVER_ERROR);
            e.printStackTrace(out);
        }
    }

    static final class OrderService {
        String place(String sku, String qty) {
            return sku + "-" + Integer.parseInt(qty);
        }
    }
}

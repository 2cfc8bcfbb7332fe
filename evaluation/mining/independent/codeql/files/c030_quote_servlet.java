package insurance.web;

import java.io.IOException;
import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;

public class QuoteServlet extends HttpServlet {

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        String plan = req.getParameter("plan");
        String holder = req.getParameter("holder");
        double premium = monthlyPremium(plan);
        resp.setContentType("text/plain;charset=UTF-8");
        resp.getWriter().printf("Quote for %s: plan %s, %.2f EUR per month%n", holder, plan, premium);
    }

    static double monthlyPremium(String plan) {
        if ("gold".equals(plan)) {
            return 42.0;
        }
        return "silver".equals(plan) ? 29.0 : 19.5;
    }
}

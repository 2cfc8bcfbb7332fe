package cards.web;

import java.io.IOException;
import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;

public class GreetingCardServlet extends HttpServlet {

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        String template = req.getParameter("template");
        String recipient = req.getParameter("to");
        if (template == null) {
            template = "Dear %s, happy birthday!";
        }
        String text = String.format(template, recipient);
        resp.setContentType("text/plain;charset=UTF-8");
        resp.getWriter().write(text);
    }
}

package reports.web;

import java.io.IOException;
import java.util.Map;
import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;
import ognl.Ognl;
import ognl.OgnlException;

public class ReportFieldResolver extends HttpServlet {

    private final Object report = Map.of("title", "Q3", "owner", Map.of("name", "Finance"));

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        String path = req.getParameter("field");
        try {
            Object value = Ognl.getValue(path, report);
            resp.getWriter().println(value);
        } catch (OgnlException e) {
            resp.sendError(HttpServletResponse.SC_BAD_REQUEST, "unknown field");
        }
    }
}

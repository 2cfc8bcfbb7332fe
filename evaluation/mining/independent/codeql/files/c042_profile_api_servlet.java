package social.api;

import java.io.IOException;
import java.util.logging.Level;
import java.util.logging.Logger;
import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;

public class ProfileApiServlet extends HttpServlet {

    private static final Logger LOG = Logger.getLogger(ProfileApiServlet.class.getName());

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        try {
            String handle = req.getParameter("handle");
            resp.getWriter().println("{\"handle\":\"" + handle.toLowerCase() + "\"}");
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "profile lookup failed", e);
            resp.sendError(HttpServletResponse.SC_INTERNAL_SERVER_ERROR, "Something went wrong");
        }
    }
}

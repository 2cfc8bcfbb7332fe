package auth.web;

import java.io.IOException;
import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;
import javax.servlet.http.HttpSession;

public class LoginReturnServlet extends HttpServlet {

    @Override
    protected void doPost(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        String user = req.getParameter("user");
        String password = req.getParameter("password");
        if (!Directory.authenticate(user, password)) {
            resp.sendError(HttpServletResponse.SC_UNAUTHORIZED);
            return;
        }
        HttpSession session = req.getSession(true);
        session.setAttribute("user", user);
        String returnTo = req.getParameter("returnTo");
        resp.sendRedirect(returnTo);
    }

    static final class Directory {
        static boolean authenticate(String user, String password) {
            return user != null && password != null && !password.isEmpty();
        }
    }
}

package social.web;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;

public class AvatarServlet extends HttpServlet {

    private static final Path AVATARS = Paths.get("/srv/social/avatars").toAbsolutePath().normalize();

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        Path requested = AVATARS.resolve(req.getParameter("user") + ".png").normalize();
        if (!requested.startsWith(AVATARS) || !Files.isRegularFile(requested)) {
            resp.sendError(HttpServletResponse.SC_NOT_FOUND);
            return;
        }
        resp.setContentType("image/png");
        Files.copy(requested, resp.getOutputStream());
    }
}

package site.i18n;

import java.io.IOException;
import java.util.Map;
import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;

public class LanguageSwitchServlet extends HttpServlet {

    private static final Map<String, String> HOME_PAGES = Map.of(
            "en", "/en/index.html",
            "de", "/de/index.html",
            "fr", "/fr/index.html");

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        String language = req.getParameter("lang");
        String target = HOME_PAGES.getOrDefault(language, "/en/index.html");
        resp.sendRedirect(req.getContextPath() + target);
    }
}

package helpdesk.web;

import java.io.File;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;

public class AttachmentDownloadServlet extends HttpServlet {

    private static final File ATTACHMENTS = new File("/srv/helpdesk/attachments");

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        String name = req.getParameter("name");
        File attachment = new File(ATTACHMENTS, name);
        resp.setContentType("application/octet-stream");
        try (InputStream in = new FileInputStream(attachment);
             OutputStream out = resp.getOutputStream()) {
            in.transferTo(out);
        }
    }
}

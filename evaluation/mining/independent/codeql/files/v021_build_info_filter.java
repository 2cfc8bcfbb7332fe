package platform.web;

import java.io.IOException;
import javax.servlet.Filter;
import javax.servlet.FilterChain;
import javax.servlet.ServletException;
import javax.servlet.ServletRequest;
import javax.servlet.ServletResponse;
import javax.servlet.http.HttpServletResponse;

public class BuildInfoFilter implements Filter {

    private final String buildTag = System.getenv("BUILD_TAG");

    @Override
    public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        HttpServletResponse http = (HttpServletResponse) response;
        if (buildTag != null) {
            http.setHeader("X-Build-Tag", buildTag);
        }
        chain.doFilter(request, response);
    }
}

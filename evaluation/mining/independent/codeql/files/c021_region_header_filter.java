package platform.web;

import java.io.IOException;
import javax.servlet.Filter;
import javax.servlet.FilterChain;
import javax.servlet.ServletException;
import javax.servlet.ServletRequest;
import javax.servlet.ServletResponse;
import javax.servlet.http.HttpServletResponse;

public class RegionHeaderFilter implements Filter {

    private final String region;

    public RegionHeaderFilter() {
        String raw = System.getenv("DEPLOY_REGION");
        this.region = raw == null ? "unknown" : raw.replaceAll("[\\r\\n]", "");
    }

    @Override
    public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        ((HttpServletResponse) response).setHeader("X-Region", region);
        chain.doFilter(request, response);
    }
}

package com.intranet.admin;

import java.io.IOException;
import javax.naming.InitialContext;
import javax.naming.NamingException;
import javax.servlet.ServletException;
import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;

public class DataSourceProbeServlet extends HttpServlet {

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response)
            throws ServletException, IOException {
        String resourceName = request.getParameter("resource");
        response.setContentType("text/plain");
        try {
            InitialContext context = new InitialContext();
            Object bound = context.lookup(resourceName);
            response.getWriter().println(resourceName + " is bound to " + bound.getClass().getName());
        } catch (NamingException e) {
            response.sendError(HttpServletResponse.SC_NOT_FOUND, "not bound");
        }
    }
}

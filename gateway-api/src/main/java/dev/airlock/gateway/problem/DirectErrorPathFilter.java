package dev.airlock.gateway.problem;

import jakarta.servlet.DispatcherType;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.http.MediaType;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * {@code /error} exists for the servlet container's error dispatches only; a client asking for
 * it directly gets a plain 404 problem, not Spring's error page for an error that never happened
 * (a 500 with status 999).
 */
@Configuration(proxyBeanMethods = false)
class DirectErrorPathFilter {

    @Bean
    FilterRegistrationBean<OncePerRequestFilter> directErrorPath() {
        FilterRegistrationBean<OncePerRequestFilter> registration =
                new FilterRegistrationBean<>(new OncePerRequestFilter() {
                    @Override
                    protected void doFilterInternal(
                            HttpServletRequest request, HttpServletResponse response, FilterChain chain)
                            throws ServletException, IOException {
                        response.setStatus(HttpServletResponse.SC_NOT_FOUND);
                        response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
                        response.setCharacterEncoding(StandardCharsets.UTF_8.name());
                        response.getWriter()
                                .write("{\"type\":\"about:blank\",\"title\":\"Not Found\",\"status\":404,"
                                        + "\"detail\":\"No such resource.\"}");
                    }
                });
        registration.addUrlPatterns("/error", "/error/*");
        registration.setDispatcherTypes(DispatcherType.REQUEST);
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE);
        return registration;
    }
}

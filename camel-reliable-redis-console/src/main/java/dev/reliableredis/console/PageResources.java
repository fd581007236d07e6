package dev.reliableredis.console;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;

/** The page, its script and its style, read once from the jar. */
final class PageResources {

    /** A file of the page and the Content-Type it is served with. */
    record Resource(String contentType, byte[] content) {
    }

    private final Map<String, Resource> byPath = Map.of(
            "/", load("index.html", "text/html; charset=utf-8"),
            "/dashboard.js", load("dashboard.js", "text/javascript; charset=utf-8"),
            "/dashboard.css", load("dashboard.css", "text/css; charset=utf-8"));

    /** The resource served at this path, or null. */
    Resource at(String path) {
        return byPath.get(path);
    }

    private static Resource load(String name, String contentType) {
        try (InputStream in = PageResources.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("The dashboard's " + name + " is missing from the class path");
            }
            return new Resource(contentType, in.readAllBytes());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

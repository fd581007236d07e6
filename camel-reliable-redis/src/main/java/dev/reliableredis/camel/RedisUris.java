package dev.reliableredis.camel;

import java.net.URI;
import java.time.Duration;
import java.util.List;

import dev.reliableredis.queue.Credentials;
import dev.reliableredis.queue.RedisGateway;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SslOptions;
import io.lettuce.core.StaticCredentialsProvider;
import io.lettuce.core.cluster.RedisClusterURIUtil;
import io.lettuce.core.resource.ClientResources;

/** Parses the redisUri option. */
final class RedisUris {

    private RedisUris() {
    }

    /**
     * The Lettuce URIs the option names, with the separate username and password applied: one for a Redis server
     * or a Sentinel group, one per node for a Redis Cluster, named by a node list such as
     * {@code redis://host1:7000,host2:7000}. Errors never show the password.
     */
    static List<RedisURI> parse(String redisUri, String username, String password) {
        List<RedisURI> nodes;
        try {
            nodes = isNodeList(redisUri)
                    ? RedisClusterURIUtil.toRedisURIs(URI.create(redisUri))
                    : List.of(RedisURI.create(redisUri));
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(
                    "redisUri '" + Credentials.mask(redisUri) + "' is not a valid Redis URI");
        }
        if (nodes.size() > 1 && databaseOf(redisUri) != 0) {
            throw new IllegalArgumentException("redisUri '" + Credentials.mask(redisUri)
                    + "' names a Redis Cluster, which has no database but 0, and database " + databaseOf(redisUri));
        }
        if (password != null) {
            // a credentials provider rather than setAuthentication: the same call on Lettuce 6 and 7
            nodes.forEach(node -> node.setCredentialsProvider(
                    new StaticCredentialsProvider(username, password.toCharArray())));
        } else if (username != null) {
            throw new IllegalArgumentException("username is set but password is not");
        }
        return nodes;
    }

    /**
     * A gateway on what the option names: a Redis Cluster client for a node list, else a Redis client.
     *
     * @param tls TLS settings for rediss:// URIs, or null for the JVM's defaults
     */
    static RedisGateway gateway(ClientResources resources, String redisUri, String username, String password,
            SslOptions tls, Duration commandTimeout) {
        List<RedisURI> nodes = parse(redisUri, username, password);
        return nodes.size() > 1
                ? RedisGateway.createCluster(resources, nodes, tls, commandTimeout)
                : RedisGateway.create(resources, nodes.get(0), tls, commandTimeout);
    }

    /** redis://host1:port1,host2:port2: Lettuce's RedisURI would take the whole list for one host name. */
    private static boolean isNodeList(String redisUri) {
        if (redisUri == null || redisUri.startsWith("redis-sentinel")) {
            return false;
        }
        String authority = redisUri.substring(authorityStart(redisUri), authorityEnd(redisUri));
        return authority.substring(authority.lastIndexOf('@') + 1).contains(",");
    }

    /** The database a node list names (/2 or ?database=2), which Lettuce's node list parsing drops. */
    private static int databaseOf(String nodeList) {
        return RedisURI.create("redis://localhost" + nodeList.substring(authorityEnd(nodeList))).getDatabase();
    }

    private static int authorityStart(String redisUri) {
        return redisUri.indexOf("://") + 3;
    }

    private static int authorityEnd(String redisUri) {
        int start = authorityStart(redisUri);
        for (int i = start; i < redisUri.length(); i++) {
            if ("/?#".indexOf(redisUri.charAt(i)) >= 0) {
                return i;
            }
        }
        return redisUri.length();
    }
}

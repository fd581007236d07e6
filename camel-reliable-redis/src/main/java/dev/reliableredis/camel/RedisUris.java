package dev.reliableredis.camel;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.StringJoiner;

import dev.reliableredis.queue.redis.RedisGateway;
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
        List<RedisURI> nodes = nodes(redisUri);
        if (nodes.size() > 1 && databaseOf(redisUri) != 0) {
            throw new IllegalArgumentException("redisUri '" + describe(nodes) + "/" + databaseOf(redisUri)
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
     * The option for a text: what it connects to, described from the parsed URI without its user info; where it
     * does not parse, the text with everything from {@code ://} to its last {@code @} masked.
     */
    static String describe(String redisUri) {
        try {
            return describe(nodes(redisUri));
        } catch (IllegalArgumentException e) {
            return withoutUserInfo(redisUri);
        }
    }

    private static List<RedisURI> nodes(String redisUri) {
        if (redisUri != null && redisUri.lastIndexOf('@') > authorityEnd(redisUri)) {
            // Lettuce would read the password's start as the host, and connect there or fail on it
            throw new IllegalArgumentException("redisUri '" + withoutUserInfo(redisUri)
                    + "' has a password (or user name) holding /, ? or #: write them percent-encoded"
                    + " (%2F, %3F, %23), or give the password in the option password");
        }
        try {
            return isNodeList(redisUri)
                    ? RedisClusterURIUtil.toRedisURIs(URI.create(redisUri))
                    : List.of(RedisURI.create(redisUri));
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("redisUri '" + withoutUserInfo(redisUri) + "' is not a valid Redis URI");
        }
    }

    private static String describe(List<RedisURI> nodes) {
        if (nodes.size() > 1) {
            StringJoiner hosts = new StringJoiner(",", (nodes.get(0).isSsl() ? "rediss" : "redis") + "://", "");
            nodes.forEach(node -> hosts.add(node.getHost() + ":" + node.getPort()));
            return hosts.toString();
        }
        RedisURI uri = nodes.get(0);
        String database = uri.getDatabase() != 0 ? "/" + uri.getDatabase() : "";
        if (uri.getSocket() != null) {
            return "redis-socket://" + uri.getSocket() + database;
        }
        if (!uri.getSentinels().isEmpty()) {
            StringJoiner sentinels = new StringJoiner(",", (uri.isSsl() ? "rediss" : "redis") + "-sentinel://", "");
            uri.getSentinels().forEach(sentinel -> sentinels.add(sentinel.getHost() + ":" + sentinel.getPort()));
            return sentinels + database + "#" + uri.getSentinelMasterId();
        }
        return (uri.isSsl() ? "rediss" : "redis") + "://" + uri.getHost() + ":" + uri.getPort() + database;
    }

    private static String withoutUserInfo(String redisUri) {
        int userInfoEnd = redisUri == null ? -1 : redisUri.lastIndexOf('@');
        if (userInfoEnd < 0) {
            return redisUri;
        }
        int userInfoStart = redisUri.indexOf("://") + 3;
        return (userInfoStart > 2 && userInfoStart <= userInfoEnd ? redisUri.substring(0, userInfoStart) : "")
               + "xxxxxx" + redisUri.substring(userInfoEnd);
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

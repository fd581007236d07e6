package dev.reliableredis.camel;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Function;

import dev.reliableredis.queue.redis.RedisGateway;
import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.KeyScanCursor;
import io.lettuce.core.RedisException;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanCursor;
import io.lettuce.core.SetArgs;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import io.lettuce.core.resource.ClientResources;
import org.apache.camel.api.management.ManagedAttribute;
import org.apache.camel.api.management.ManagedOperation;
import org.apache.camel.api.management.ManagedResource;
import org.apache.camel.spi.IdempotentRepository;
import org.apache.camel.support.service.ServiceSupport;

/**
 * A Camel {@link IdempotentRepository} on Redis, for {@code idempotentConsumer(...)} in any route. Each key is one
 * Redis string {@code <keyPrefix>:{<name>}:seen:<key>} that expires after {@link #setExpiry expiry}, so that
 * {@link #add} is one {@code SET NX PX} command: atomic, so concurrent adds of one key have exactly one winner. Its
 * value is the add's own token, which lets a failed add be recognised by the next add of its key.
 * Connects through a Lettuce client the application owns ({@link #setRedisClient}), or through one of its own made
 * from {@link #setRedisUri redisUri} and closed when the repository stops. Configure it before it starts.
 */
@ManagedResource(description = "reliable-redis idempotent repository: keys in Redis that expire")
public class ReliableRedisIdempotentRepository extends ServiceSupport implements IdempotentRepository {

    /** Adds whose answer was lost that this repository still remembers, at most this many (the oldest go first). */
    static final int MAX_UNANSWERED = 10_000;
    /** Keys one SCAN step reads and one UNLINK removes in clear(). */
    static final int CLEAR_BATCH = 1000;

    private AbstractRedisClient redisClient;
    private String redisUri;
    private String username;
    private String password;
    private String keyPrefix = "rr";
    private String name;
    private Duration expiry = Duration.ofHours(24);
    private Duration commandTimeout = Duration.ofSeconds(5);

    private IdempotentKeys keys;
    private ClientResources ownResources;
    private volatile RedisGateway redis;
    /**
     * The tokens of adds that failed without an answer, by key: Redis may have stored them, and Camel runs no
     * {@code remove} for an add that threw. The next add of such a key finds its token there and takes the key.
     */
    private final Map<String, byte[]> unanswered = Collections.synchronizedMap(new LinkedHashMap<>() {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, byte[]> eldest) {
            return size() > MAX_UNANSWERED;
        }
    });

    /** For bean definitions (YAML, XML, Spring): set redisUri or redisClient, and name, before it starts. */
    public ReliableRedisIdempotentRepository() {
    }

    /** A repository on a client the application owns and closes. */
    public ReliableRedisIdempotentRepository(AbstractRedisClient redisClient, String name) {
        this.redisClient = redisClient;
        this.name = name;
    }

    /** A repository with a client of its own for this URI, closed when the repository stops. */
    public ReliableRedisIdempotentRepository(String redisUri, String name) {
        this.redisUri = redisUri;
        this.name = name;
    }

    @Override
    protected void doStart() {
        keys = new IdempotentKeys(keyPrefix, name);
        // PX takes whole milliseconds, and PX 0 is an error
        if (expiry == null || expiry.isNegative() || !expiry.isZero() && expiry.toMillis() == 0) {
            throw new IllegalArgumentException("expiry must be zero (never) or at least 1 ms, was " + expiry);
        }
        if (commandTimeout == null || commandTimeout.isNegative() || commandTimeout.isZero()) {
            throw new IllegalArgumentException("commandTimeout must be positive, was " + commandTimeout);
        }
        if (redisClient != null) {
            redis = RedisGateway.using(redisClient, commandTimeout);
        } else if (redisUri != null) {
            RedisUris.parse(redisUri, username, password); // a bad URI fails before any resources are made
            ownResources = RedisGateway.newClientResources();
            redis = RedisUris.gateway(ownResources, redisUri, username, password, null, commandTimeout);
        } else {
            throw new IllegalArgumentException("Idempotent repository '" + name + "' needs redisClient or redisUri");
        }
    }

    @Override
    protected void doStop() {
        RedisGateway closing = redis;
        redis = null;
        if (closing != null) {
            closing.close();
        }
        if (ownResources != null) {
            ownResources.shutdown();
            ownResources = null;
        }
    }

    /**
     * Remembers the key unless it is remembered already: true for exactly one of concurrent adds of one key. Each add
     * stores a token of its own. When an add fails without an answer (a timeout, a reset connection), Redis may
     * still have stored it, and Camel's idempotent consumer runs no {@code remove} for an add that threw: the key
     * would keep the source's resend out for its whole expiry, never processed. So the repository remembers that
     * token, and the next add of the key that finds it in Redis takes the key (true). Remembered in this repository
     * only: a resend that reaches another JVM's repository is kept out until the key expires.
     */
    @Override
    @ManagedOperation(description = "Adds the key; false when it is there already")
    public boolean add(String key) {
        byte[] redisKey = keys().of(key);
        // a number: Redis keeps it in the key's value object, with no string of its own to allocate
        byte[] token = Long.toString(ThreadLocalRandom.current().nextLong() & Long.MAX_VALUE)
                .getBytes(StandardCharsets.UTF_8);
        SetArgs setIfAbsent = expiry.isZero() ? SetArgs.Builder.nx() : SetArgs.Builder.nx().px(expiry.toMillis());
        String stored;
        try {
            stored = call("add", commands -> commands.set(redisKey, token, setIfAbsent));
        } catch (IdempotentRepositoryException e) {
            unanswered.put(key, token);
            throw e;
        }
        if (stored != null) {
            unanswered.remove(key);
            return true;
        }
        byte[] lost = unanswered.get(key);
        return lost != null && Arrays.equals(lost, call("add", commands -> commands.get(redisKey)))
               && unanswered.remove(key, lost);
    }

    @Override
    @ManagedOperation(description = "Whether the key is remembered")
    public boolean contains(String key) {
        byte[] redisKey = keys().of(key);
        return call("contains", commands -> commands.exists(redisKey)) > 0;
    }

    /** Forgets the key; true when it was remembered. */
    @Override
    @ManagedOperation(description = "Removes the key; false when it was not there")
    public boolean remove(String key) {
        byte[] redisKey = keys().of(key);
        unanswered.remove(key);
        return call("remove", commands -> commands.del(redisKey)) > 0;
    }

    /**
     * Nothing to do: {@link #add} stored the key completely, and its expiry counts from then. Returns true, as
     * Camel's own repositories do; it does not call Redis.
     */
    @Override
    public boolean confirm(String key) {
        return true;
    }

    /**
     * Forgets every key of this repository and nothing else: SCAN with a MATCH on its own key base, UNLINK of each
     * batch found. Keys added while it runs may survive it.
     */
    @Override
    @ManagedOperation(description = "Removes every key of this repository, and no other Redis key")
    public void clear() {
        byte[] pattern = keys().ownKeysPattern();
        unanswered.clear();
        ScanArgs match = ScanArgs.Builder.matches(pattern).limit(CLEAR_BATCH);
        call("clear", commands -> {
            ScanCursor cursor = ScanCursor.INITIAL;
            do {
                KeyScanCursor<byte[]> page = commands.scan(cursor, match);
                if (!page.getKeys().isEmpty()) {
                    commands.unlink(page.getKeys().toArray(byte[][]::new));
                }
                cursor = page;
            } while (!cursor.isFinished());
            return null;
        });
    }

    private IdempotentKeys keys() {
        if (redis == null) {
            throw notStarted();
        }
        return keys;
    }

    private <T> T call(String operation, Function<RedisClusterCommands<byte[], byte[]>, T> redisCall) {
        RedisGateway gateway = redis;
        if (gateway == null) {
            throw notStarted();
        }
        try {
            return redisCall.apply(gateway.commands());
        } catch (RedisException e) {
            throw new IdempotentRepositoryException(operation, name, e);
        }
    }

    private IllegalStateException notStarted() {
        return new IllegalStateException("Idempotent repository '" + name + "' is not started");
    }

    /** The Lettuce client the application owns; it stays open when the repository stops. */
    public void setRedisClient(AbstractRedisClient redisClient) {
        this.redisClient = redisClient;
    }

    public AbstractRedisClient getRedisClient() {
        return redisClient;
    }

    /** Redis URI for a client of the repository's own, such as {@code redis://localhost:6379}. */
    public void setRedisUri(String redisUri) {
        this.redisUri = redisUri;
    }

    public String getRedisUri() {
        return redisUri;
    }

    /** Username for Redis ACL authentication with redisUri; needs password. */
    public void setUsername(String username) {
        this.username = username;
    }

    public String getUsername() {
        return username;
    }

    /** Password for redisUri, kept out of the URI; it has no getter, so that JMX and tooling cannot show it. */
    public void setPassword(String password) {
        this.password = password;
    }

    /** Name of the repository: its Redis hash tag; letters, digits and . _ : - only. */
    public void setName(String name) {
        this.name = name;
    }

    @ManagedAttribute(description = "The repository name, the hash tag of its keys")
    public String getName() {
        return name;
    }

    /** Prefix of the repository's Redis keys; default rr. */
    public void setKeyPrefix(String keyPrefix) {
        this.keyPrefix = keyPrefix;
    }

    @ManagedAttribute(description = "The prefix of the repository's Redis keys")
    public String getKeyPrefix() {
        return keyPrefix;
    }

    /** How long Redis remembers a key after its add (Redis server time); default 24 hours, zero for ever. */
    public void setExpiry(Duration expiry) {
        this.expiry = expiry;
    }

    public Duration getExpiry() {
        return expiry;
    }

    @ManagedAttribute(description = "How long a key is remembered after its add, in ms (0: for ever)")
    public long getExpiryMillis() {
        return expiry.toMillis();
    }

    /** The longest wait for one Redis command; default 5 seconds. */
    public void setCommandTimeout(Duration commandTimeout) {
        this.commandTimeout = commandTimeout;
    }

    public Duration getCommandTimeout() {
        return commandTimeout;
    }

    @Override
    public String toString() {
        return "ReliableRedisIdempotentRepository[" + keyPrefix + ":{" + name + "}"
               + (redisUri != null ? ", " + RedisUris.describe(redisUri) : "") + "]";
    }
}

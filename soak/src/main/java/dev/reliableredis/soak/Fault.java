package dev.reliableredis.soak;

/** The faults a soak run injects, in this order, round and round. */
enum Fault {
    /** SIGKILL of a consumer JVM, which is started again. */
    CONSUMER_KILL,
    /** SIGKILL of redis-server, started again on the same port and data directory (AOF). */
    REDIS_KILL,
    /** CLIENT KILL of every client connection. */
    CLIENT_KILL,
    /** SCRIPT FLUSH: every client must load its scripts again. */
    SCRIPT_FLUSH,
    /** SIGSTOP of redis-server for longer than the visibility timeout, then SIGCONT. */
    REDIS_PAUSE;

    /** Whether the fault can make a message be processed twice (a lost ack or an expired lease). */
    boolean canDuplicate() {
        return this != SCRIPT_FLUSH;
    }
}

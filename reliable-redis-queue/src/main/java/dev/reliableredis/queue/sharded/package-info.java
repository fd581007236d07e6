/**
 * Sharded queues: one logical queue over N ordinary queues of either mode, each in a Redis Cluster slot of its own,
 * with the shard picked per message, the claims spread over the shards, a shard's outage kept to that shard, and
 * the shard count recorded in Redis and changed by a reshard.
 */
package dev.reliableredis.queue.sharded;

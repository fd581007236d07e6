/**
 * The web dashboard of the queues under one key prefix: their depths and messages, redrive, purge, pause and resume,
 * served by the JDK's HTTP server from the queue engine, with or without Camel (docs/dashboard.md).
 */
package dev.reliableredis.console;

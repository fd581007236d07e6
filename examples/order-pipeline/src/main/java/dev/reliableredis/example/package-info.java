/**
 * The order pipeline example: orders through two queues with failing orders, retries and dead letters, and a
 * summary that counts every order (README).
 */
package dev.reliableredis.example;

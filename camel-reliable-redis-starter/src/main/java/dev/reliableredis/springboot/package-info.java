/**
 * The Spring Boot starter: the component's options as {@code camel.component.reliable-redis.*} properties, and its
 * auto-configuration (docs/spring-boot.md).
 */
package dev.reliableredis.springboot;

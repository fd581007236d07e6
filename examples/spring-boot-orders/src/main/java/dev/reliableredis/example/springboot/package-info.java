/** The Spring Boot example: an orders application on the starter. */
package dev.reliableredis.example.springboot;

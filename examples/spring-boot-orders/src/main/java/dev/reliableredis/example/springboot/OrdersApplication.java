package dev.reliableredis.example.springboot;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * A Spring Boot application whose orders go through a reliable-redis queue. The component finds Redis through
 * the application's own {@code spring.data.redis.*} settings (application.properties).
 */
@SpringBootApplication
public class OrdersApplication {

    public static void main(String[] args) {
        SpringApplication.run(OrdersApplication.class, args);
    }
}

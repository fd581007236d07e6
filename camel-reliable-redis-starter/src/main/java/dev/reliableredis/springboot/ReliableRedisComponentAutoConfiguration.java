package dev.reliableredis.springboot;

import dev.reliableredis.camel.ReliableRedisComponent;
import org.apache.camel.Component;
import org.apache.camel.spi.ComponentCustomizer;
import org.apache.camel.spring.boot.CamelAutoConfiguration;
import org.apache.camel.spring.boot.ComponentConfigurationProperties;
import org.apache.camel.spring.boot.util.CamelPropertiesHelper;
import org.apache.camel.spring.boot.util.ConditionalOnCamelContextAndAutoConfigurationBeans;
import org.apache.camel.spring.boot.util.ConditionalOnHierarchicalProperties;
import org.apache.camel.spring.boot.util.HierarchicalPropertiesEvaluator;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Lazy;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * Configures the reliable-redis component from {@code camel.component.reliable-redis.*}, the way Camel's own
 * starters do, and, unless {@code redis-uri} is set, gives it the Redis client of the application's Spring Data
 * Redis {@link LettuceConnectionFactory}: host, port, password, TLS, Sentinel and Cluster come from
 * {@code spring.data.redis.*} then, as for the rest of the application. The factory owns that client and closes it.
 */
@AutoConfiguration(after = CamelAutoConfiguration.class,
                   afterName = "org.springframework.boot.autoconfigure.data.redis.RedisAutoConfiguration")
@Conditional(ConditionalOnCamelContextAndAutoConfigurationBeans.class)
@EnableConfigurationProperties({ComponentConfigurationProperties.class, ReliableRedisComponentConfiguration.class})
@ConditionalOnHierarchicalProperties({"camel.component", "camel.component.reliable-redis"})
public class ReliableRedisComponentAutoConfiguration {

    private static final String PREFIX = "camel.component.reliable-redis";

    @Lazy
    @Bean
    public ComponentCustomizer configureReliableRedisComponent(ApplicationContext applicationContext,
            ReliableRedisComponentConfiguration configuration) {
        return new ComponentCustomizer() {
            @Override
            public void configure(String name, Component target) {
                CamelPropertiesHelper.copyProperties(target.getCamelContext(), configuration, target);
            }

            @Override
            public boolean isEnabled(String name, Component target) {
                return HierarchicalPropertiesEvaluator.evaluate(applicationContext, "camel.component.customizer",
                        PREFIX + ".customizer") && target instanceof ReliableRedisComponent;
            }
        };
    }

    /** Only with Spring Data Redis and its Lettuce connection factory in the application. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(LettuceConnectionFactory.class)
    @ConditionalOnBean(LettuceConnectionFactory.class)
    static class SpringDataRedisClient {

        @Lazy
        @Bean
        public ComponentCustomizer reliableRedisSpringDataRedisClient(LettuceConnectionFactory factory,
                ReliableRedisComponentConfiguration configuration) {
            return ComponentCustomizer.forType(ReliableRedisComponent.class, component -> {
                if (configuration.getRedisUri() == null && component.getRedisClient() == null) {
                    component.setRedisClient(factory.getNativeClient());
                }
            });
        }
    }
}

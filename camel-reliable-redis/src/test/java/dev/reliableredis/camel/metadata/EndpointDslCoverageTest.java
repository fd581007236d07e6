package dev.reliableredis.camel.metadata;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import dev.reliableredis.camel.dsl.StaticEndpointBuilders;
import dev.reliableredis.camel.dsl.endpoint.ReliableRedisEndpointBuilderFactory.ReliableRedisBuilders;
import dev.reliableredis.camel.dsl.endpoint.ReliableRedisEndpointBuilderFactory.ReliableRedisHeaderNameBuilder;
import dev.reliableredis.camel.metadata.ComponentMetadata.Option;
import org.apache.camel.builder.EndpointConsumerBuilder;
import org.apache.camel.builder.EndpointProducerBuilder;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The generated Endpoint DSL offers exactly the options and headers of the component JSON, each with its Java type,
 * consumer options only where a consumer is built and producer options only where a producer is: a DSL that missed
 * a regeneration fails here.
 */
class EndpointDslCoverageTest {

    private static final Map<String, Class<?>> PRIMITIVES = Map.of("int", int.class, "long", long.class, "double",
            double.class, "boolean", boolean.class, "float", float.class, "short", short.class, "byte", byte.class,
            "char", char.class);

    private static ComponentMetadata metadata;
    /** The builder {@code reliableRedis(path)} returns: both consumer and producer options. */
    private static Class<?> endpoint;
    private static Class<?> consumer;
    private static Class<?> producer;

    @BeforeAll
    static void load() throws Exception {
        metadata = ComponentMetadata.load();
        endpoint = StaticEndpointBuilders.class.getMethod("reliableRedis", String.class).getReturnType();
        consumer = implemented(EndpointConsumerBuilder.class);
        producer = implemented(EndpointProducerBuilder.class);
    }

    @Test
    void everyQueryOptionHasATypedAndAStringBuilderMethod() throws Exception {
        for (Option option : metadata.queryOptions()) {
            Class<?> type = javaType(option);
            for (Class<?> builder : buildersOffering(option)) {
                assertThat(methods(builder).filter(m -> m.getName().equals(option.name()))
                        .map(m -> Arrays.asList(m.getParameterTypes())))
                        .as("%s on %s", option.name(), builder.getSimpleName())
                        .contains(List.of(type), List.of(String.class));
            }
        }
    }

    @Test
    void consumerOptionsAreNotOnTheProducerBuilderNorProducerOptionsOnTheConsumerBuilder() {
        for (Option option : metadata.queryOptions()) {
            if (option.labelled("consumer")) {
                assertThat(names(producer)).as(option.name()).doesNotContain(option.name());
            }
            if (option.labelled("producer")) {
                assertThat(names(consumer)).as(option.name()).doesNotContain(option.name());
            }
        }
    }

    @Test
    void everyBuilderMethodIsAnOptionOfTheJson() {
        Set<String> options = metadata.queryOptions().stream().map(Option::name).collect(Collectors.toSet());
        assertThat(names(endpoint)).containsExactlyInAnyOrderElementsOf(options);
    }

    @Test
    void thePathIsTheSyntaxAfterTheScheme() {
        assertThat(metadata.pathOptions()).extracting(Option::name)
                .containsExactly(metadata.get("syntax").substring(metadata.get("scheme").length() + 1));
    }

    @Test
    void theHeaderNameBuilderNamesEveryHeader() throws Exception {
        ReliableRedisHeaderNameBuilder names = new ReliableRedisBuilders() { }.reliableRedis();
        List<Object> headers = new ArrayList<>();
        for (Method method : ReliableRedisHeaderNameBuilder.class.getDeclaredMethods()) {
            if (Modifier.isPublic(method.getModifiers()) && method.getParameterCount() == 0) {
                headers.add(method.invoke(names));
            }
        }
        assertThat(headers).containsExactlyInAnyOrderElementsOf(
                metadata.headers().stream().map(Option::name).toList());
    }

    /** Where Camel's generator puts an option: by the producer and consumer words of its label. */
    private static List<Class<?>> buildersOffering(Option option) {
        if (option.labelled("consumer")) {
            return List.of(endpoint, consumer);
        }
        if (option.labelled("producer")) {
            return List.of(endpoint, producer);
        }
        return List.of(endpoint, consumer, producer);
    }

    /** The basic builder's interface that extends the given Camel builder interface. */
    private static Class<?> implemented(Class<?> camelBuilder) {
        return Stream.of(endpoint.getInterfaces()).filter(camelBuilder::isAssignableFrom).findFirst().orElseThrow();
    }

    /** The option methods of a basic builder and of its advanced() builder, without Camel's inherited ones. */
    private static Stream<Method> methods(Class<?> basic) {
        Class<?> advanced;
        try {
            advanced = basic.getMethod("advanced").getReturnType();
        } catch (NoSuchMethodException e) {
            advanced = basic;
        }
        return Stream.of(basic, advanced).flatMap(b -> Stream.of(b.getMethods()))
                .filter(m -> m.getDeclaringClass().getPackageName().startsWith("dev.reliableredis"))
                .filter(m -> !m.getName().equals("advanced") && !m.getName().equals("basic"));
    }

    private static Set<String> names(Class<?> basic) {
        return methods(basic).map(Method::getName).collect(Collectors.toSet());
    }

    private static Class<?> javaType(Option option) throws ClassNotFoundException {
        String name = option.javaType().replaceAll("<.*", "");
        Class<?> primitive = PRIMITIVES.get(name);
        return primitive != null ? primitive : Class.forName(name);
    }
}

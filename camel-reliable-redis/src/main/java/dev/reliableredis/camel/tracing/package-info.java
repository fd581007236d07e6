/**
 * The span decorators of the component for Camel's two tracer modules (camel-tracing and camel-telemetry), found
 * by their ServiceLoaders; both modules are optional dependencies.
 */
package dev.reliableredis.camel.tracing;

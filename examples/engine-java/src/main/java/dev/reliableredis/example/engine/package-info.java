/** The queue engine used from plain Java, without Camel: the README's "The engine from plain Java", run by CI. */
package dev.reliableredis.example.engine;

/**
 * The demo profile's welcome: how to call the demo tenant's tools.
 */
package dev.airlock.gateway.demo;

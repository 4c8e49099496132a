/** What every HTTP input of the application is bounded by before it is parsed: body size and JSON shape. */
package dev.airlock.gateway.http;

/** What the people's APIs answer when a rule of the people's side refuses a request: problem details. */
package dev.airlock.approval.web;

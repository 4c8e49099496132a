/** Failed sign-ins and the lock-outs they lead to, counted for the whole cluster. */
package dev.airlock.persistence.login;

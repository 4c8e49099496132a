package dev.airlock.approval.request;

import dev.airlock.approval.people.Human;
import dev.airlock.approval.people.Role;
import java.util.Set;

/**
 * A human deciding, with the tenants in which they hold the APPROVER role. Agents are never
 * approvers: the gateway builds this only from a human login.
 *
 * @param name     the person's user name
 * @param identity the person's stable identity ({@code Identities.of})
 * @param tenants  the tenants where they may approve
 */
public record Approver(String name, String identity, Set<String> tenants) {

    public Approver {
        tenants = Set.copyOf(tenants);
    }

    /** The signed-in person as an approver: only the tenants where they hold APPROVER count. */
    public static Approver of(Human human) {
        return new Approver(human.name(), human.identity(), human.tenants(Role.APPROVER));
    }
}

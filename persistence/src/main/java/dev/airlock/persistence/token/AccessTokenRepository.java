package dev.airlock.persistence.token;

import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.springframework.data.jpa.repository.JpaRepository;

/** Access tokens, looked up by digest or by their owner's stable identity. */
// Declared query methods get no transaction of their own from Spring Data: this gives them one, so
// that every query runs in a transaction that carries the thread's database scope (role and tenants).
@org.springframework.transaction.annotation.Transactional(readOnly = true)
public interface AccessTokenRepository extends JpaRepository<AccessToken, UUID> {

    Optional<AccessToken> findByTokenSha256AndRevokedAtIsNull(String tokenSha256);

    List<AccessToken> findByIdentityOrderByCreatedAtDesc(String identity);

    Optional<AccessToken> findByIdAndIdentity(UUID id, String identity);
}

package dev.airlock.persistence.token;

import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.springframework.data.jpa.repository.JpaRepository;

/** Access tokens, looked up by digest or by their owner's stable identity. */
public interface AccessTokenRepository extends JpaRepository<AccessToken, UUID> {

    Optional<AccessToken> findByTokenSha256AndRevokedAtIsNull(String tokenSha256);

    List<AccessToken> findByIdentityOrderByCreatedAtDesc(String identity);

    Optional<AccessToken> findByIdAndIdentity(UUID id, String identity);
}

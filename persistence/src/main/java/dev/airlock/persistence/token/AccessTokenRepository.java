package dev.airlock.persistence.token;

import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.springframework.data.jpa.repository.JpaRepository;

/** Access tokens, looked up by digest or by owner. */
public interface AccessTokenRepository extends JpaRepository<AccessToken, UUID> {

    Optional<AccessToken> findByTokenSha256AndRevokedAtIsNull(String tokenSha256);

    List<AccessToken> findByOwnerOrderByCreatedAtDesc(String owner);

    Optional<AccessToken> findByIdAndOwner(UUID id, String owner);
}

package dev.airlock.gateway;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import dev.airlock.persistence.artifact.GrantRefused;
import dev.airlock.persistence.artifact.RawGrants;
import org.junit.jupiter.api.Test;

/**
 * The module and package rules of the architecture, checked on the compiled classes of every
 * module: sanitizer-core depends on nothing; persistence knows no web or sanitizer types;
 * approval-service depends on persistence only; nothing depends on the gateway; no feature
 * package of the gateway depends on another in a cycle.
 */
class ArchitectureTests {

    private static final JavaClasses AIRLOCK = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.airlock");

    @Test
    void sanitizerCoreDependsOnTheJdkOnly() {
        classes().that().resideInAPackage("dev.airlock.sanitizer..")
                .should().onlyDependOnClassesThat().resideInAnyPackage("dev.airlock.sanitizer..", "java..")
                .check(AIRLOCK);
    }

    @Test
    void persistenceKnowsNoWebSanitizerApprovalOrGatewayTypes() {
        noClasses().that().resideInAPackage("dev.airlock.persistence..")
                .should().dependOnClassesThat().resideInAnyPackage("dev.airlock.sanitizer..", "dev.airlock.approval..",
                        "dev.airlock.gateway..", "org.springframework.web..", "org.springframework.http..",
                        "jakarta.servlet..", "tools.jackson..")
                .check(AIRLOCK);
    }

    @Test
    void approvalServiceDependsOnPersistenceOnly() {
        noClasses().that().resideInAPackage("dev.airlock.approval..")
                .should().dependOnClassesThat().resideInAnyPackage("dev.airlock.sanitizer..", "dev.airlock.gateway..",
                        "org.springframework.web..", "jakarta.servlet..")
                .check(AIRLOCK);
    }

    @Test
    void nothingDependsOnTheGateway() {
        noClasses().that().resideOutsideOfPackage("dev.airlock.gateway..")
                .should().dependOnClassesThat().resideInAPackage("dev.airlock.gateway..")
                .check(AIRLOCK);
    }

    @Test
    void gatewayFeaturePackagesAreFreeOfCycles() {
        slices().matching("dev.airlock.gateway.(*)..").should().beFreeOfCycles().check(AIRLOCK);
    }

    @Test
    void webAdaptersAreUsedByNoOtherPackage() {
        noClasses().that().resideOutsideOfPackage("..web..")
                .should().dependOnClassesThat().resideInAPackage("dev.airlock.gateway..web..")
                .check(AIRLOCK);
    }

    @Test
    void noWebAdapterReachesTheRestrictedSchema() {
        noClasses().that().resideInAnyPackage("dev.airlock.gateway..web..", "dev.airlock.gateway.console..")
                .should().dependOnClassesThat(JavaClass.Predicates.resideInAPackage("dev.airlock.persistence.artifact..")
                        .and(DescribedPredicate.not(JavaClass.Predicates.belongToAnyOf(GrantRefused.class))))
                .because("raw bytes are read only through the gateway's RawAccess, which checks grants")
                .check(AIRLOCK);
    }

    @Test
    void onlyRawAccessOpensGrants() {
        noClasses().that().resideOutsideOfPackage("dev.airlock.persistence.artifact..")
                .and().doNotHaveFullyQualifiedName(dev.airlock.gateway.audit.RawAccess.class.getName())
                .should().dependOnClassesThat().haveFullyQualifiedName(RawGrants.class.getName())
                .because("every read of raw bytes goes through one service that checks the grant")
                .check(AIRLOCK);
    }
}

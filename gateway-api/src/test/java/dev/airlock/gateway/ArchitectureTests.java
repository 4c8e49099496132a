package dev.airlock.gateway;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import dev.airlock.approval.grant.GrantRefused;
import dev.airlock.approval.grant.RawAccessGrants;
import dev.airlock.persistence.artifact.RawArtifactStore;
import dev.airlock.persistence.run.StreamName;
import org.junit.jupiter.api.Test;

/**
 * The module and package rules of the architecture, checked on the compiled classes of every
 * module: sanitizer-core depends on nothing; the shared kernel on the sanitizer and Spring Boot
 * only; persistence knows no web, approval or gateway types; the people's rules know no web
 * types; the agent side never calls the human side (also a fact of the build: gateway-api compiles
 * without approval-service); nothing depends on the gateway; no feature package of the gateway
 * depends on another in a cycle.
 */
class ArchitectureTests {

    private static final JavaClasses AIRLOCK = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.airlock");

    @Test
    void sanitizerCoreDependsOnTheJdkOnly() {
        classes()
                .that()
                .resideInAPackage("dev.airlock.sanitizer..")
                // The JDK only: java.* and the JDK's Vector API module, used when the JVM has it.
                .should()
                .onlyDependOnClassesThat()
                .resideInAnyPackage("dev.airlock.sanitizer..", "java..", "jdk.incubator.vector..")
                .check(AIRLOCK);
    }

    @Test
    void theSharedKernelKnowsNeitherSideNorTheRecordNorTheWeb() {
        noClasses()
                .that()
                .resideInAPackage("dev.airlock.kernel..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        "dev.airlock.persistence..",
                        "dev.airlock.approval..",
                        "dev.airlock.gateway..",
                        "org.springframework.web..",
                        "org.springframework.http..",
                        "org.springframework.security..",
                        "jakarta.servlet..",
                        "jakarta.persistence..")
                .check(AIRLOCK);
    }

    @Test
    void persistenceKnowsNoWebApprovalOrGatewayTypes() {
        noClasses()
                .that()
                .resideInAPackage("dev.airlock.persistence..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        "dev.airlock.approval..",
                        "dev.airlock.gateway..",
                        "org.springframework.web..",
                        "org.springframework.http..",
                        "org.springframework.security..",
                        "jakarta.servlet..")
                .check(AIRLOCK);
    }

    @Test
    void peoplesRulesKnowNoWebTypes() {
        noClasses()
                .that()
                .resideInAnyPackage(
                        "dev.airlock.approval.request",
                        "dev.airlock.approval.grant..",
                        "dev.airlock.approval.input..",
                        "dev.airlock.approval.notify..",
                        "dev.airlock.approval.retention..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("org.springframework.web..", "org.springframework.http..", "jakarta.servlet..")
                .because("approval rules, grants, notifications and retention are used by web adapters, never the other"
                        + " way round")
                .check(AIRLOCK);
    }

    @Test
    void theAgentSideAndTheApplicationNeverCallThePeoplesSide() {
        noClasses()
                .that()
                .resideInAPackage("dev.airlock.gateway..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("dev.airlock.approval..")
                .because("gateway-api compiles without approval-service, which it only packages: a decision, a grant or"
                        + " anything else people do is recorded by the people's side alone; the agent side learns of decisions"
                        + " through the database (a closed request, NOTIFY) and announces its own facts as events")
                .check(AIRLOCK);
    }

    @Test
    void thePeoplesSideNeverCallsTheAgentSide() {
        noClasses()
                .that()
                .resideInAPackage("dev.airlock.approval..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("dev.airlock.gateway..")
                .check(AIRLOCK);
    }

    @Test
    void nothingDependsOnTheGateway() {
        noClasses()
                .that()
                .resideOutsideOfPackage("dev.airlock.gateway..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("dev.airlock.gateway..")
                .check(AIRLOCK);
    }

    @Test
    void gatewayFeaturePackagesAreFreeOfCycles() {
        slices().matching("dev.airlock.gateway.(*)..").should().beFreeOfCycles().check(AIRLOCK);
    }

    @Test
    void webAdaptersAreUsedByNoOtherPackage() {
        noClasses()
                .that()
                .resideOutsideOfPackage("..web..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("dev.airlock..web..")
                .check(AIRLOCK);
    }

    @Test
    void noWebAdapterReachesTheRestrictedSchema() {
        noClasses()
                .that()
                .resideInAnyPackage("dev.airlock..web..", "dev.airlock.approval.console..")
                .should()
                .dependOnClassesThat(JavaClass.Predicates.resideInAnyPackage(
                                "dev.airlock.persistence.artifact..", "dev.airlock.approval.grant..")
                        .and(DescribedPredicate.not(JavaClass.Predicates.belongToAnyOf(
                                GrantRefused.class, dev.airlock.persistence.artifact.GrantStatus.class))))
                .because("raw bytes are read only through the auditors' RawAccess, which checks grants")
                .check(AIRLOCK);
    }

    @Test
    void onlyTheGrantServiceReadsRawBytes() {
        noClasses()
                .that()
                .doNotHaveFullyQualifiedName(RawAccessGrants.class.getName())
                .should()
                .callMethod(
                        RawArtifactStore.class,
                        "read",
                        java.util.UUID.class,
                        String.class,
                        String.class,
                        StreamName.class,
                        int.class,
                        int.class)
                .because("raw bytes are reached only through one service that checks a grant")
                .check(AIRLOCK);
        classes()
                .that()
                .haveFullyQualifiedName(RawAccessGrants.class.getName())
                .should()
                .callMethod(
                        RawArtifactStore.class,
                        "read",
                        java.util.UUID.class,
                        String.class,
                        String.class,
                        StreamName.class,
                        int.class,
                        int.class)
                .as("the rule above names the method the grant service really calls")
                .check(AIRLOCK);
    }

    @Test
    void theMcpEndpointReachesRunsOnlyThroughTheAgentSideServices() {
        noClasses()
                .that()
                .resideInAPackage("dev.airlock.gateway.mcp..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        "dev.airlock.persistence.artifact..",
                        "dev.airlock.approval.grant..",
                        "dev.airlock.approval.request..",
                        "dev.airlock.persistence.approval..",
                        "dev.airlock.persistence.audit..",
                        "dev.airlock.persistence.token..",
                        "dev.airlock.persistence.retention..",
                        "dev.airlock.approval.people..",
                        "dev.airlock.approval.console..",
                        "dev.airlock.approval.audit..",
                        "dev.airlock.approval.notify..",
                        "dev.airlock.gateway.capture..")
                .because(
                        "agents reach runs through RunService, RunViews and OutputExcerpts only, as over REST: never raw"
                                + " bytes, approvals, grants, tokens or people")
                .check(AIRLOCK);
        noClasses()
                .that()
                .resideInAPackage("dev.airlock.gateway.mcp..")
                .should()
                .dependOnClassesThat()
                .haveSimpleNameEndingWith("Repository")
                .because("the MCP endpoint reads no table itself; the run pipeline does")
                .check(AIRLOCK);
        classes()
                .that()
                .resideInAPackage("dev.airlock.gateway.mcp..")
                .and()
                .haveSimpleName("ToolCalls")
                .should()
                .dependOnClassesThat()
                .haveFullyQualifiedName(dev.airlock.gateway.run.RunService.class.getName())
                .as("the rules above look at the package that really runs tools, through the REST API's RunService")
                .allowEmptyShould(false)
                .check(AIRLOCK);
    }

    @Test
    void onlyRawAccessOpensGrants() {
        noClasses()
                .that()
                .resideOutsideOfPackage("dev.airlock.approval.grant..")
                .and()
                .doNotHaveFullyQualifiedName(dev.airlock.approval.audit.RawAccess.class.getName())
                .should()
                .dependOnClassesThat()
                .haveFullyQualifiedName(RawAccessGrants.class.getName())
                .because("people reach grants through the auditors' RawAccess, which applies each tenant's policy")
                .check(AIRLOCK);
    }
}

package dev.sluice.reference.clients;

import dev.sluice.reference.JsonLines;
import dev.sluice.reference.ProgramArguments;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.ConsumerGroupListing;
import org.apache.kafka.clients.admin.DescribeClusterResult;
import org.apache.kafka.clients.admin.DescribeConfigsOptions;
import org.apache.kafka.clients.admin.DescribeProducersOptions;
import org.apache.kafka.clients.admin.GroupListing;
import org.apache.kafka.clients.admin.ListConsumerGroupOffsetsSpec;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.ListTopicsOptions;
import org.apache.kafka.clients.admin.MemberToRemove;
import org.apache.kafka.clients.admin.NewPartitions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.clients.admin.RemoveMembersFromConsumerGroupOptions;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.admin.TransactionDescription;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclBindingFilter;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.quota.ClientQuotaFilter;

/**
 * Kafka's AdminClient, driven one call at a time from stdin so that a test can interleave calls with what it
 * checks. Each input line is a JSON object naming the call and its arguments ({"call":"createTopics",
 * "topics":[{"name":"t","partitions":3}]}); each answer is one line {"call":..., "result":...} or
 * {"call":..., "error":{"error": exception class, "message":...}}. A call that takes longer than the admin's
 * default API timeout fails with TimeoutException, so a broker that never answers shows as an error, not a hang.
 *
 * <p>Arguments: bootstrap-servers [config=value ...].
 */
public final class AdminCalls {
    private final Admin admin;
    private final Map<String, Call> calls = new HashMap<>();

    private interface Call {
        Object run(Map<String, Object> request) throws Exception;
    }

    private AdminCalls(Admin admin) {
        this.admin = admin;
        calls.put("createTopics", this::createTopics);
        calls.put("deleteTopics", r -> wait(admin.deleteTopics(strings(r, "topics")).all()));
        calls.put("listTopics", r -> new TreeMap<>(get(admin.listTopics(new ListTopicsOptions().listInternal(bool(r, "internal"))).namesToListings()))
            .values().stream().map(listing -> Map.of("name", listing.name(), "internal", listing.isInternal(), "topicId", listing.topicId().toString())).toList());
        calls.put("describeTopics", this::describeTopics);
        calls.put("describeCluster", r -> describeCluster());
        calls.put("describeConfigs", this::describeConfigs);
        calls.put("createPartitions", r -> wait(admin.createPartitions(Map.of((String) r.get("topic"), NewPartitions.increaseTo(integer(r, "total")))).all()));
        calls.put("deleteRecords", r -> get(admin.deleteRecords(Map.of(partition(r), RecordsToDelete.beforeOffset(number(r, "before")))).lowWatermarks().get(partition(r))).lowWatermark());
        calls.put("listOffsets", this::listOffsets);
        calls.put("listConsumerGroups", r -> get(admin.listConsumerGroups().all()).stream().sorted(Comparator.comparing(ConsumerGroupListing::groupId))
            .map(group -> JsonLines.object("groupId", group.groupId(), "type", group.type().map(Object::toString).orElse(null),
                "state", group.groupState().map(Object::toString).orElse(null), "simple", group.isSimpleConsumerGroup())).toList());
        calls.put("listGroups", r -> get(admin.listGroups().all()).stream().sorted(Comparator.comparing(GroupListing::groupId))
            .map(group -> JsonLines.object("groupId", group.groupId(), "type", group.type().map(Object::toString).orElse(null),
                "state", group.groupState().map(Object::toString).orElse(null), "protocol", group.protocol())).toList());
        calls.put("describeConsumerGroups", this::describeConsumerGroups);
        calls.put("listConsumerGroupOffsets", r -> offsets(get(admin.listConsumerGroupOffsets(Map.of((String) r.get("group"), new ListConsumerGroupOffsetsSpec())).all()).get(r.get("group"))));
        calls.put("alterConsumerGroupOffsets", this::alterConsumerGroupOffsets);
        calls.put("deleteConsumerGroupOffsets", r -> wait(admin.deleteConsumerGroupOffsets((String) r.get("group"), java.util.Set.of(partition(r))).all()));
        calls.put("deleteConsumerGroups", r -> wait(admin.deleteConsumerGroups(strings(r, "groups")).all()));
        // Static members by their group.instance.id (KIP-345): {"call":"removeMembersFromConsumerGroup","group":"g","instances":["a"]}.
        calls.put("removeMembersFromConsumerGroup", r -> wait(admin.removeMembersFromConsumerGroup((String) r.get("group"),
            new RemoveMembersFromConsumerGroupOptions(strings(r, "instances").stream().map(MemberToRemove::new).toList())).all()));
        calls.put("incrementalAlterConfigs", this::incrementalAlterConfigs);
        calls.put("describeAcls", r -> get(admin.describeAcls(AclBindingFilter.ANY).values()).stream().map(AdminCalls::aclText).sorted().toList());
        calls.put("createAcls", r -> wait(admin.createAcls(List.of(acl(r))).all()));
        calls.put("deleteAcls", r -> get(admin.deleteAcls(List.of(acl(r).toFilter())).all()).stream().map(AdminCalls::aclText).sorted().toList());
        calls.put("describeProducers", r -> get(admin.describeProducers(List.of(partition(r)), new DescribeProducersOptions()).all()).get(partition(r)).activeProducers().size());
        calls.put("listTransactions", r -> get(admin.listTransactions().all()).stream()
            .map(listing -> JsonLines.object("transactionalId", listing.transactionalId(), "state", listing.state().toString()))
            .sorted(Comparator.comparing(listing -> (String) listing.get("transactionalId"))).toList());
        calls.put("describeTransactions", r -> {
            String id = (String) r.get("transactionalId");
            TransactionDescription description = get(admin.describeTransactions(List.of(id)).description(id));
            return JsonLines.object("state", description.state().toString(), "coordinator", description.coordinatorId(),
                "partitions", description.topicPartitions().stream().map(TopicPartition::toString).sorted().toList());
        });
        calls.put("describeClientQuotas", r -> get(admin.describeClientQuotas(ClientQuotaFilter.all()).entities()).size());
        calls.put("describeLogDirs", r -> get(admin.describeLogDirs(List.of(0)).allDescriptions()).size());
        calls.put("electLeaders", r -> wait(admin.electLeaders(org.apache.kafka.common.ElectionType.PREFERRED, java.util.Set.of(partition(r))).all()));
        calls.put("describeFeatures", r -> get(admin.describeFeatures().featureMetadata()).finalizedFeatures().keySet());
        calls.put("describeUserScramCredentials", r -> get(admin.describeUserScramCredentials().all()).size());
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 1) throw new IllegalArgumentException("usage: AdminCalls bootstrap-servers [config=value ...]");
        Properties props = new Properties();
        props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, args[0]);
        ProgramArguments.withConfigs(props, args, 1);
        try (Admin admin = Admin.create(props);
             BufferedReader input = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
            AdminCalls adminCalls = new AdminCalls(admin);
            for (String line = input.readLine(); line != null; line = input.readLine()) {
                if (!line.isBlank()) JsonLines.print(adminCalls.answer(JsonLines.parse(line)));
            }
        }
    }

    private Map<String, Object> answer(Map<String, Object> request) {
        String name = (String) request.get("call");
        Call call = calls.get(name);
        if (call == null) return JsonLines.object("call", name, "error", JsonLines.object("error", "UnknownCall", "message", "AdminCalls has no call " + name));
        try {
            return JsonLines.object("call", name, "result", call.run(request));
        } catch (Exception e) {
            return JsonLines.object("call", name, "error", JsonLines.error(e));
        }
    }

    /** One ACL binding: {"resourceType":"TOPIC","name":"t","patternType":"LITERAL","principal":"User:a","operation":"READ","permission":"ALLOW"}. */
    private static AclBinding acl(Map<String, Object> request) {
        ResourcePattern pattern = new ResourcePattern(ResourceType.fromString((String) request.get("resourceType")), (String) request.get("name"),
            PatternType.fromString((String) request.getOrDefault("patternType", "LITERAL")));
        return new AclBinding(pattern, new AccessControlEntry((String) request.get("principal"), (String) request.getOrDefault("host", "*"),
            AclOperation.fromString((String) request.get("operation")), AclPermissionType.fromString((String) request.getOrDefault("permission", "ALLOW"))));
    }

    private static String aclText(AclBinding binding) {
        return binding.entry().permissionType() + " " + binding.entry().principal() + " " + binding.entry().operation() + " "
            + binding.pattern().resourceType() + ":" + binding.pattern().name() + " " + binding.pattern().patternType();
    }

    private Object createTopics(Map<String, Object> request) throws Exception {
        List<NewTopic> topics = new ArrayList<>();
        for (Map<String, Object> topic : maps(request, "topics")) {
            NewTopic newTopic = new NewTopic((String) topic.get("name"), integer(topic, "partitions"), (short) (topic.containsKey("replicationFactor") ? integer(topic, "replicationFactor") : 1));
            @SuppressWarnings("unchecked")
            Map<String, String> configs = (Map<String, String>) topic.get("configs");
            if (configs != null) newTopic.configs(configs);
            topics.add(newTopic);
        }
        return wait(admin.createTopics(topics).all());
    }

    private Object describeTopics(Map<String, Object> request) throws Exception {
        Map<String, TopicDescription> descriptions = get(admin.describeTopics(strings(request, "topics")).allTopicNames());
        return new TreeMap<>(descriptions).values().stream().map(description -> JsonLines.object(
            "name", description.name(),
            "internal", description.isInternal(),
            "partitions", description.partitions().stream().map(AdminCalls::partitionInfo).toList())).toList();
    }

    private static Map<String, Object> partitionInfo(TopicPartitionInfo info) {
        return JsonLines.object("partition", info.partition(), "leader", info.leader() == null ? null : info.leader().id(),
            "replicas", info.replicas().stream().map(node -> node.id()).toList(), "isr", info.isr().stream().map(node -> node.id()).toList());
    }

    private Object describeCluster() throws Exception {
        DescribeClusterResult cluster = admin.describeCluster();
        return JsonLines.object(
            "clusterId", get(cluster.clusterId()),
            "controller", get(cluster.controller()).id(),
            "nodes", get(cluster.nodes()).stream().map(node -> JsonLines.object("id", node.id(), "host", node.host(), "port", node.port())).toList());
    }

    private Object describeConfigs(Map<String, Object> request) throws Exception {
        ConfigResource resource = new ConfigResource(ConfigResource.Type.valueOf(((String) request.get("type")).toUpperCase()), (String) request.get("name"));
        Config config = get(admin.describeConfigs(List.of(resource), new DescribeConfigsOptions().includeSynonyms(bool(request, "synonyms"))).all()).get(resource);
        List<String> keys = request.containsKey("keys") ? strings(request, "keys") : null;
        Map<String, Object> entries = new TreeMap<>();
        for (ConfigEntry entry : config.entries()) {
            if (keys != null && !keys.contains(entry.name())) continue;
            entries.put(entry.name(), JsonLines.object("value", entry.value(), "source", entry.source().toString(), "readOnly", entry.isReadOnly(),
                "synonyms", entry.synonyms().stream().map(synonym -> synonym.source() + "=" + synonym.value()).toList()));
        }
        return entries;
    }

    private Object listOffsets(Map<String, Object> request) throws Exception {
        String spec = (String) request.get("spec");
        OffsetSpec offsetSpec = switch (spec) {
            case "earliest" -> OffsetSpec.earliest();
            case "latest" -> OffsetSpec.latest();
            case "maxTimestamp" -> OffsetSpec.maxTimestamp();
            default -> OffsetSpec.forTimestamp(Long.parseLong(spec));
        };
        ListOffsetsResult.ListOffsetsResultInfo info = get(admin.listOffsets(Map.of(partition(request), offsetSpec)).partitionResult(partition(request)));
        return JsonLines.object("offset", info.offset(), "timestamp", info.timestamp());
    }

    private Object describeConsumerGroups(Map<String, Object> request) throws Exception {
        Map<String, ConsumerGroupDescription> groups = get(admin.describeConsumerGroups(strings(request, "groups")).all());
        return new TreeMap<>(groups).values().stream().map(group -> JsonLines.object(
            "groupId", group.groupId(),
            "state", group.groupState().toString(),
            "type", group.type().toString(),
            "partitionAssignor", group.partitionAssignor(),
            "coordinator", group.coordinator().id(),
            "members", group.members().stream()
                .map(member -> JsonLines.object("clientId", member.clientId(), "host", member.host(),
                    "partitions", member.assignment().topicPartitions().stream().map(TopicPartition::toString).sorted().toList()))
                .sorted(Comparator.comparing(member -> member.get("partitions").toString()))
                .toList())).toList();
    }

    private Object alterConsumerGroupOffsets(Map<String, Object> request) throws Exception {
        Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
        for (Map<String, Object> entry : maps(request, "offsets")) offsets.put(partition(entry), new OffsetAndMetadata(number(entry, "offset")));
        return wait(admin.alterConsumerGroupOffsets((String) request.get("group"), offsets).all());
    }

    private Object incrementalAlterConfigs(Map<String, Object> request) throws Exception {
        ConfigResource resource = new ConfigResource(ConfigResource.Type.valueOf(((String) request.get("type")).toUpperCase()), (String) request.get("name"));
        List<AlterConfigOp> ops = new ArrayList<>();
        for (Map<String, Object> op : maps(request, "ops")) {
            ops.add(new AlterConfigOp(new ConfigEntry((String) op.get("name"), (String) op.get("value")), AlterConfigOp.OpType.valueOf(((String) op.get("op")).toUpperCase())));
        }
        return wait(admin.incrementalAlterConfigs(Map.of(resource, ops)).all());
    }

    private static Map<String, Long> offsets(Map<TopicPartition, OffsetAndMetadata> offsets) {
        return offsets.entrySet().stream().filter(entry -> entry.getValue() != null)
            .collect(Collectors.toMap(entry -> entry.getKey().toString(), entry -> entry.getValue().offset(), (a, b) -> a, TreeMap::new));
    }

    private static <T> T get(org.apache.kafka.common.KafkaFuture<T> future) throws Exception {
        // Longer than the admin's own default.api.timeout.ms (60 s): the client gives up first and says why.
        return future.get(90, TimeUnit.SECONDS);
    }

    private static String wait(org.apache.kafka.common.KafkaFuture<Void> future) throws Exception {
        get(future);
        return "ok";
    }

    private static TopicPartition partition(Map<String, Object> request) {
        return new TopicPartition((String) request.get("topic"), integer(request, "partition"));
    }

    private static int integer(Map<String, Object> request, String name) {
        return ((Number) request.get(name)).intValue();
    }

    private static long number(Map<String, Object> request, String name) {
        return ((Number) request.get(name)).longValue();
    }

    private static boolean bool(Map<String, Object> request, String name) {
        return Boolean.TRUE.equals(request.get(name));
    }

    @SuppressWarnings("unchecked")
    private static List<String> strings(Map<String, Object> request, String name) {
        return (List<String>) request.get(name);
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> maps(Map<String, Object> request, String name) {
        return (List<Map<String, Object>>) request.get(name);
    }

}

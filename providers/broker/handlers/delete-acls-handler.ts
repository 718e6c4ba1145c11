/**
 * DeleteAcls: removes the run-time bindings each filter matches and names them. Bindings from `broker.acls` match too
 * but stay: each is named with INVALID_REQUEST, since only the configuration removes it.
 */
import { ErrorCode } from "../../kafka-protocol/error-codes";
import { DeleteAcls } from "../../kafka-protocol/messages/delete-acls";
import type { AclBinding, AclBindingFilter } from "../acl/acl-binding";
import { defineHandler, type RegisteredHandler } from "./api-handler";
import type { BrokerServices } from "./broker-services";
import { filterOf, NO_AUTHORIZER } from "./acl-requests";
import { errorCodeOf } from "./error-code-of";

const CONFIGURED = "set in broker.acls: remove it from the configuration";

export function deleteAclsHandler({ acls, logger }: BrokerServices): RegisteredHandler {
  const matching = (binding: AclBinding, errorCode: number, errorMessage: string | null) => ({
    errorCode,
    errorMessage,
    resourceType: binding.resourceType,
    resourceName: binding.resourceName,
    patternType: binding.patternType,
    principal: binding.principal,
    host: binding.host,
    operation: binding.operation,
    permissionType: binding.permission,
  });

  return defineHandler(DeleteAcls, async (request) => {
    const failed = (errorCode: number, errorMessage: string) => ({ errorCode, errorMessage, matchingAcls: [] });
    if (!acls) return { filterResults: request.filters.map(() => failed(ErrorCode.SECURITY_DISABLED, NO_AUTHORIZER)) };
    const filters = request.filters.map(filterOf);
    const valid = filters.filter((filter): filter is AclBindingFilter => typeof filter !== "string");
    let deleted;
    try {
      deleted = await acls.delete(valid);
    } catch (error) {
      const errorCode = errorCodeOf(error, logger, "deleting ACLs");
      return { filterResults: filters.map((filter) => (typeof filter === "string" ? failed(ErrorCode.INVALID_REQUEST, filter) : failed(errorCode, "the ACLs could not be saved"))) };
    }
    let next = 0;
    return {
      filterResults: filters.map((filter) => {
        if (typeof filter === "string") return failed(ErrorCode.INVALID_REQUEST, filter);
        const { deleted: removed, configured } = deleted[next++];
        return {
          errorCode: ErrorCode.NONE,
          errorMessage: null,
          matchingAcls: [...removed.map((binding) => matching(binding, ErrorCode.NONE, null)), ...configured.map((binding) => matching(binding, ErrorCode.INVALID_REQUEST, CONFIGURED))],
        };
      }),
    };
  });
}

/** CreateAcls: valid bindings are added (and saved) together, each creation answered on its own. */
import { ErrorCode } from "../../kafka-protocol/error-codes";
import { CreateAcls } from "../../kafka-protocol/messages/create-acls";
import type { AclBinding } from "../acl/acl-binding";
import { defineHandler, type RegisteredHandler } from "./api-handler";
import type { BrokerServices } from "./broker-services";
import { bindingOf, NO_AUTHORIZER } from "./acl-requests";
import { errorCodeOf } from "./error-code-of";

export function createAclsHandler({ acls, logger }: BrokerServices): RegisteredHandler {
  return defineHandler(CreateAcls, async (request) => {
    if (!acls) return { results: request.creations.map(() => ({ errorCode: ErrorCode.SECURITY_DISABLED, errorMessage: NO_AUTHORIZER })) };
    const bindings = request.creations.map(bindingOf);
    let saved: { errorCode: number; errorMessage: string | null } = { errorCode: ErrorCode.NONE, errorMessage: null };
    try {
      await acls.create(bindings.filter((binding): binding is AclBinding => typeof binding !== "string"));
    } catch (error) {
      saved = { errorCode: errorCodeOf(error, logger, "creating ACLs"), errorMessage: "the ACLs could not be saved" };
    }
    return { results: bindings.map((binding) => (typeof binding === "string" ? { errorCode: ErrorCode.INVALID_REQUEST, errorMessage: binding } : saved)) };
  });
}

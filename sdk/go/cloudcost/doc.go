// Cloud Groups, budget alerts and scheduled reports of the Cloud Cost Management API
package cloudcost
